import { expect } from 'chai'
import { once } from 'node:events'
import { createConnection, createServer, type AddressInfo } from 'node:net'
import { MongoError, MongoServerError } from 'mongodb'
import { meansStorageUnavailable } from '../../../adapters/mongodb/unavailability.js'

// The error Node raises when a client writes on a socket the other side has closed: what the
// driver let out as it was while MongoDB flapped (finding 3 of issue 8).
const socketErrorFromWriteAfterPeerClosed = async (): Promise<Error> => {
  const server = createServer((socket) => socket.end())
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  try {
    const client = createConnection((server.address() as AddressInfo).port, '127.0.0.1')
    const failed = new Promise<Error>((resolve) => client.on('error', resolve))
    await once(client, 'end')
    client.write('after the end')
    const error = await failed
    client.destroy()
    return error
  } finally {
    server.close()
  }
}

describe('what the MongoDB adapter calls storage unavailable', function () {
  it('a socket ended by the other party (EPIPE), not wrapped in a MongoError', async function () {
    const error = await socketErrorFromWriteAfterPeerClosed()
    expect(error).to.not.be.instanceOf(MongoError)
    expect(error.message).to.equal('This socket has been ended by the other party')
    expect(meansStorageUnavailable(error)).to.equal(true)
  })

  it('a reset connection (ECONNRESET) as Node raises it', function () {
    const reset = Object.assign(new Error('write ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'write' })
    expect(meansStorageUnavailable(reset)).to.equal(true)
  })

  it('a MongoError whose cause is a socket error', function () {
    const wrapped = new MongoError('connection failed', {
      cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
    })
    expect(meansStorageUnavailable(wrapped)).to.equal(true)
  })

  for (const [code, codeName] of [
    [112, 'WriteConflict'],
    [11601, 'Interrupted'],
    [24, 'LockTimeout'],
    [365, 'TemporarilyUnavailable'],
  ] as const) {
    it(`the server's ${codeName} (${code})`, function () {
      expect(meansStorageUnavailable(new MongoServerError({ ok: 0, code, codeName, errmsg: codeName }))).to.equal(true)
    })
  }

  it('not a bug: a TypeError, a plain Error, a duplicate key, a BadValue', function () {
    expect(meansStorageUnavailable(new TypeError('x is not a function'))).to.equal(false)
    expect(meansStorageUnavailable(new Error('the document stored under _id 7 is not a plant'))).to.equal(false)
    expect(meansStorageUnavailable(new MongoServerError({ ok: 0, code: 11000, errmsg: 'E11000' }))).to.equal(false)
    expect(meansStorageUnavailable(new MongoServerError({ ok: 0, code: 2, codeName: 'BadValue', errmsg: 'bad' }))).to.equal(false)
    expect(meansStorageUnavailable(Object.assign(new Error('bad'), { code: 'ERR_INVALID_ARG_TYPE' }))).to.equal(false)
  })

  it('stops on a cycle of causes', function () {
    const first = new Error('first')
    const second = new Error('second', { cause: first })
    first.cause = second
    expect(meansStorageUnavailable(first)).to.equal(false)
  })
})
