import { expect } from 'chai'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { ENV_FILE_MAX_BYTES, readEnvFile } from '../../../../apps/server/env-file.js'

describe('reading the local settings file', function () {
  let dir = ''
  beforeEach(function () {
    dir = mkdtempSync(join(tmpdir(), 'plant-store-env-file-'))
  })
  afterEach(function () {
    rmSync(dir, { recursive: true, force: true })
  })

  it('parses NAME=value lines as process.loadEnvFile does', function () {
    writeFileSync(join(dir, '.env'), 'A=1\n# a comment\nexport B="two words"\n\nC=\n')
    expect(readEnvFile(join(dir, '.env'))).to.deep.equal(E.right({ A: '1', B: 'two words', C: '' }))
  })

  it('answers nothing for a file that is not there, or a link to nothing', function () {
    expect(readEnvFile(join(dir, '.env'))).to.deep.equal(E.right(undefined))
    symlinkSync(join(dir, 'gone'), join(dir, '.env'))
    expect(readEnvFile(join(dir, '.env'))).to.deep.equal(E.right(undefined))
  })

  it('refuses a file over its bound, naming the file, and reads one at it', function () {
    const path = join(dir, '.env')
    writeFileSync(path, `A=${'x'.repeat(ENV_FILE_MAX_BYTES - 2)}`)
    expect(E.isRight(readEnvFile(path))).to.equal(true)
    writeFileSync(path, `A=${'x'.repeat(ENV_FILE_MAX_BYTES - 1)}`)
    expect(readEnvFile(path)).to.deep.equal(E.left(`${path}: larger than ${ENV_FILE_MAX_BYTES} bytes; local settings are a few lines`))
  })

  it('refuses what is not a regular file, naming the file and what it is, without reading it', async function () {
    const path = join(dir, '.env')
    symlinkSync('/dev/zero', path)
    expect(readEnvFile(path)).to.deep.equal(E.left(`${path}: not a regular file (a character device); local settings are read from a file only`))
    rmSync(path)
    mkdirSync(path)
    expect(readEnvFile(path)).to.deep.equal(E.left(`${path}: not a regular file (a directory); local settings are read from a file only`))
    rmSync(path, { recursive: true })
    const socket = createServer().listen(path)
    await once(socket, 'listening')
    try {
      // A socket cannot even be opened (ENXIO): the refusal says so.
      const refused = readEnvFile(path)
      expect(E.isLeft(refused) && refused.left).to.match(new RegExp(`^${path}: cannot be read \\(ENXIO`))
    } finally {
      socket.close()
    }
  })
})
