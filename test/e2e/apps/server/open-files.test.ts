import { expect } from 'chai'
import { connect } from 'node:net'
import { connectionCapWithin, openFilesLimit } from '../../../../apps/server/open-files.js'
import { MAIN, useCurrentBuild } from '../../../support/current-build.js'
import { healthzFrom } from '../../../support/raw-http.js'
import { startServiceProcess } from '../../../support/service-process.js'

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
    const lowered = connectionCapWithin(1000, 1024)
    expect(lowered.maxConnections).to.equal(960)
    expect(lowered.warning).to.match(/^MAX_CONNECTIONS \(1000\).*open-files limit \(1024\): the cap is 960;/)
    expect(connectionCapWithin(900, 1024)).to.deep.equal({ maxConnections: 900 })
    expect(connectionCapWithin(5000, undefined)).to.deep.equal({ maxConnections: 5000 })
  })

  describe('the service started under a low limit', function () {
    this.timeout(30_000)
    useCurrentBuild()

    it('lowers the cap to the limit, warns at start naming both, and still serves a newcomer when every file is taken', async function () {
      const service = startServiceProcess(
        { PLANT_STORE_TOKENS: 'open-files-token-0123456789', SHUTDOWN_DRAIN_MS: '0' },
        { argv: ['prlimit', '--nofile=512', process.execPath, MAIN], cwd: process.cwd() },
      )
      try {
        await service.listening
        const warning = service.stdout().split('\n').find((line) => line.includes('connection cap lowered to the open-files limit'))
        expect(warning, service.stdout()).to.include('"level":"warn"').and.include('MAX_CONNECTIONS (1000)').and.include('limit (512)').and.include('the cap is 448')
        // More silent connections than the process has files for, from one client: past the cap,
        // they give way to another client's.
        const port = Number(new URL(await service.listening).port)
        const silent = Array.from({ length: 480 }, () => connect({ port, host: '127.0.0.1' }).on('error', () => undefined))
        try {
          await new Promise((resolve) => setTimeout(resolve, 300))
          expect(await healthzFrom(port, '127.0.0.2')).to.equal(200)
        } finally {
          for (const socket of silent) socket.destroy()
        }
      } finally {
        await service.stop('SIGTERM')
      }
    })
  })
})
