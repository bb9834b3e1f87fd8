import { expect } from 'chai'
import { connectionsBeyondFileLimit, openFilesLimit } from '../../../apps/server/open-files.js'
import { MAIN, useCurrentBuild } from '../../support/current-build.js'
import { startServiceProcess } from '../../support/service-process.js'

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 524288               files
`

describe('MAX_CONNECTIONS checked against the open-files limit', function () {
  it('reads the soft limit from /proc/self/limits, and none where it cannot', function () {
    expect(openFilesLimit(() => LIMITS)).to.equal(1024)
    expect(openFilesLimit(() => LIMITS.replace('1024   ', 'unlimited'))).to.equal(undefined)
    expect(
      openFilesLimit(() => {
        throw new Error('ENOENT')
      }),
    ).to.equal(undefined)
  })

  it('says what to change when the cap and the files beside it exceed the limit, and nothing otherwise', function () {
    expect(connectionsBeyondFileLimit(1000, 1024)).to.match(/^MAX_CONNECTIONS \(1000\).*open-files limit \(1024\).*below 960$/)
    expect(connectionsBeyondFileLimit(900, 1024)).to.equal(undefined)
    expect(connectionsBeyondFileLimit(1000, undefined)).to.equal(undefined)
  })

  describe('the service started under a low limit', function () {
    this.timeout(30_000)
    useCurrentBuild()

    it('warns at start, naming MAX_CONNECTIONS and the limit', async function () {
      const service = startServiceProcess(
        { PLANT_STORE_TOKENS: 'open-files-token-0123456789', SHUTDOWN_DRAIN_MS: '0' },
        { argv: ['prlimit', '--nofile=512', process.execPath, MAIN], cwd: process.cwd() },
      )
      try {
        await service.listening
        const warning = service.stdout().split('\n').find((line) => line.includes('connection cap beyond the open-files limit'))
        expect(warning, service.stdout()).to.include('"level":"warn"').and.include('MAX_CONNECTIONS (1000)').and.include('limit (512)')
      } finally {
        await service.stop('SIGTERM')
      }
    })
  })
})
