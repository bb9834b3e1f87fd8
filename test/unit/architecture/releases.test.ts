import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { openApiDocument } from '../../../adapters/http/index.js'

// A release is one version everywhere a reader meets it: package.json, the service's workspace,
// the CHANGELOG's newest section, the tarball the README installs. The HTTP interface keeps its own.
const ROOT = new URL('../../../', import.meta.url)
const text = (file: string): string => readFileSync(new URL(file, ROOT), 'utf8')
const versionOf = (file: string): string => (JSON.parse(text(file)) as { version: string }).version
const VERSION = versionOf('package.json')

// Keep a Changelog's kinds of change.
const KINDS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']

describe('releases', function () {
  const changelog = text('CHANGELOG.md')
  const headings = [...changelog.matchAll(/^## (.*)$/gm)].map(([, heading]) => heading ?? '')

  it('has a semantic version in package.json, the same in the service’s workspace', function () {
    expect(VERSION).to.match(/^\d+\.\d+\.\d+$/)
    expect(versionOf('apps/server/package.json')).to.equal(VERSION)
  })

  it('opens the CHANGELOG with Unreleased, then a dated section for package.json’s version', function () {
    expect(headings[0]).to.equal('[Unreleased]')
    expect(headings[1]).to.match(new RegExp(`^\\[${VERSION.replaceAll('.', '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`))
  })

  it('sorts each versioned section of the CHANGELOG into Keep a Changelog’s kinds of change', function () {
    const sections = changelog.split(/^## /m).slice(1).filter((section) => section.startsWith('['))
    expect(sections.length).to.be.at.least(2)
    for (const section of sections) {
      const title = section.slice(0, section.indexOf('\n'))
      const kinds = [...section.matchAll(/^### (.*)$/gm)].map(([, kind]) => kind)
      for (const kind of kinds) expect(KINDS, `${title}: ### ${kind ?? ''}`).to.include(kind)
      // Every entry sits under a kind: none between the version's heading and its first kind.
      const beforeKinds = section.slice(title.length, kinds.length === 0 ? undefined : section.indexOf('\n### '))
      expect(beforeKinds, title).not.to.match(/^- /m)
    }
  })

  it('names the tarball of this version wherever the README packs or installs one', function () {
    const named = [...text('README.md').matchAll(/plant-store-(\d+\.\d+\.\d+[^\s]*)\.tgz/g)].map(([, version]) => version)
    expect(named).not.to.deep.equal([])
    for (const version of named) expect(version).to.equal(VERSION)
  })

  it('keeps the interface’s own version in /openapi.json, whatever the release', function () {
    expect(openApiDocument('', { bodyLimitBytes: 1024 }).info.version).to.equal('1.0.0')
  })
})
