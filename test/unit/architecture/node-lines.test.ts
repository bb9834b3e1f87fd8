import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import semver from 'semver'
import { parse } from 'yaml'
import { stagesOf } from '../../support/dockerfile.js'

// The Node lines the project supports are the ones with security support. `.ci/run` names them
// once; everything else that says which lines there are is held to it here: package.json's
// engines start at the oldest, @types/node is the oldest's, the CI workflow tests each, the
// README says which, and the Dockerfile's stages run on the newest (the active LTS).
const ROOT = new URL('../../../', import.meta.url)
const text = (file: string): string => readFileSync(new URL(file, ROOT), 'utf8')

const LINES = (/^NODE_LINES=\(([\d ]+)\)$/m.exec(text('.ci/run'))?.[1] ?? '').split(' ').map(Number)
const OLDEST = Math.min(...LINES)
const NEWEST = Math.max(...LINES)

describe('the Node lines the project supports', function () {
  it('are named in .ci/run', function () {
    expect(LINES).to.deep.equal([22, 24, 26])
  })

  it("start package.json's engines, the service workspace's too, at the oldest line", function () {
    for (const file of ['package.json', 'apps/server/package.json']) {
      const { engines } = JSON.parse(text(file)) as { engines: { node: string } }
      expect(semver.minVersion(engines.node)?.major, file).to.equal(OLDEST)
      for (const line of LINES) expect(semver.satisfies(`${line}.99.0`, engines.node), `${file}: Node ${line}`).to.equal(true)
    }
  })

  it("type the code against the oldest line's Node API (@types/node)", function () {
    const { devDependencies } = JSON.parse(text('package.json')) as { devDependencies: Record<string, string> }
    expect(semver.minVersion(devDependencies['@types/node'] ?? '')?.major).to.equal(OLDEST)
  })

  it('are each tested by the CI workflow', function () {
    const { jobs } = parse(text('.github/workflows/ci.yml')) as { jobs: Record<string, { strategy?: { matrix?: { node?: ReadonlyArray<string> } } }> }
    const tested = Object.values(jobs).flatMap((job) => job.strategy?.matrix?.node ?? [])
    expect(tested.map((version) => Number(version.split('.')[0]))).to.deep.equal(LINES)
  })

  it('are said in the README', function () {
    expect(text('README.md')).to.include(`the lines with security support, ${LINES.slice(0, -1).join(', ')} and ${NEWEST}, are each tested`)
  })

  it("are the newest's in each of the Dockerfile's stages", function () {
    const images = stagesOf(text('Dockerfile')).map((stage) => stage.image)
    expect(images).to.have.length.above(0)
    for (const image of images) expect(image).to.equal(`node:${NEWEST}-bookworm-slim`)
  })
})
