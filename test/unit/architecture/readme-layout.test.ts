import { expect } from 'chai'
import { readdirSync, readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'

// The README's picture of the layout is a claim about the tree: each folder it names exists, and
// each folder of core/, wire/, adapters/, apps/ and testing/ is in it.

const ROOT = new URL('../../../', import.meta.url)

const pictured = (): ReadonlyArray<string> => {
  const readme = readFileSync(new URL('README.md', ROOT), 'utf8')
  const block = /<!-- layout:start -->\n```\n([\s\S]*?)\n```\n<!-- layout:end -->/.exec(readme)?.[1]
  if (block === undefined) throw new Error('README.md has no layout picture between its layout markers')
  const parents: string[] = []
  const folders: string[] = []
  for (const line of block.split('\n')) {
    const match = /^( *)([a-z0-9-]+\/)/.exec(line)
    if (match?.[1] === undefined || match[2] === undefined) continue
    const depth = match[1].length / 2
    parents.length = depth
    parents.push(match[2])
    folders.push(parents.join('').replace(/\/$/, ''))
  }
  return folders
}

const onDisk = (): ReadonlyArray<string> =>
  ['core', 'wire', 'adapters', 'apps', 'testing'].flatMap((top) => [
    top,
    ...readdirSync(new URL(`${top}/`, ROOT), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => relative(fileURLToPath(ROOT), `${entry.parentPath}/${entry.name}`)),
  ])

// The README is a front door: what a user needs to start, embed or operate, within a length one
// reads; contributor material and reference detail live in docs/.
const README_MAX_LINES = 600

describe('the README', function () {
  it(`is at most ${README_MAX_LINES} lines`, function () {
    const text = readFileSync(new URL('README.md', ROOT), 'utf8')
    // Counted as wc -l and an editor count them: a final newline ends the last line.
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
    expect(lines).to.be.at.most(README_MAX_LINES)
  })
})

describe("the README's layout picture", function () {
  it('names every folder of core/, wire/, adapters/, apps/ and testing/, and only folders that exist', function () {
    expect([...pictured()].sort()).to.deep.equal([...onDisk()].sort())
  })
})
