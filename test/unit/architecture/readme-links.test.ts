import { expect } from 'chai'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

// The README and the pages of docs/ are read on a git host and in a clone without anything beside
// it: every link must lead to a file of the repository, and to a heading that exists there. The
// README's table of contents is derived from its headings, so it cannot list a section that moved.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]

const read = (page: string): string => readFileSync(join(ROOT, page), 'utf8')

// Text outside fenced code blocks: a `](x)` inside a code sample is no link.
const prose = (text: string): string => text.replace(/^```[\s\S]*?^```/gm, '')

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')

const headings = (text: string, levels = /^#{1,6} /): ReadonlyArray<string> =>
  prose(text)
    .split('\n')
    .filter((line) => levels.test(line))
    .map((line) => line.replace(/^#+ /, ''))

const anchorsOf = (text: string): ReadonlySet<string> => new Set(headings(text).map(anchorOf))

const links = (text: string): ReadonlyArray<string> =>
  [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '').filter((target) => !/^(https?|mailto):/.test(target))

describe('the README and docs/ link only to what is there', function () {
  for (const page of PAGES) {
    it(`${page}: every link leads to a file of the repository and a heading that exists`, function () {
      const broken: string[] = []
      for (const target of links(read(page))) {
        const [path = '', anchor] = target.split('#')
        const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path)
        if (relative(ROOT, file).startsWith('..') || !existsSync(file)) {
          broken.push(`${target}: no such file in the repository`)
          continue
        }
        if (anchor !== undefined && (statSync(file).isDirectory() || !anchorsOf(readFileSync(file, 'utf8')).has(anchor))) {
          broken.push(`${target}: no heading with that anchor`)
        }
      }
      expect(broken).to.deep.equal([])
    })
  }

  it('the README links every page of docs/ from its Reference table', function () {
    const readme = read('README.md')
    for (const page of PAGES.filter((p) => p !== 'README.md')) expect(readme, page).to.include(`](${page})`)
  })

  it("the README's table of contents lists its sections, in order", function () {
    const readme = read('README.md')
    const toc = /<!-- toc:start -->\n([\s\S]*?)<!-- toc:end -->/.exec(readme)?.[1] ?? ''
    expect(toc, 'the README has a table of contents between its toc markers').not.to.equal('')
    const expected = headings(readme, /^## /).map((heading) => `- [${heading}](#${anchorOf(heading)})`)
    expect(toc.trim().split('\n')).to.deep.equal(['**Contents**', '', ...expected])
  })
})
