import { expect } from 'chai'
import { once } from 'node:events'
import { createConnection, createServer, type AddressInfo } from 'node:net'
import {
  MongoError,
  MongoErrorLabel,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoWriteConcernError,
} from 'mongodb'
import { meansServerUnreachable, meansStorageUnavailable } from '../../../../adapters/mongodb/unavailability.js'
import { codesInCategories } from '../../../support/mongo-peer/error-codes.js'
import { TRANSIENT_SERVER_CODES } from '../../../support/mongodb/transient-codes.js'

// The error Node raises when a client writes on a socket the other side has closed: what the
// driver let out as it was while MongoDB flapped.
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

  for (const { code, name } of TRANSIENT_SERVER_CODES) {
    it(`the server's ${name} (${code}), as a command error and as a write concern error`, function () {
      expect(meansStorageUnavailable(new MongoServerError({ ok: 0, code, codeName: name, errmsg: name }))).to.equal(true)
      const writeConcernError = new MongoWriteConcernError({ ok: 1, n: 1, writeConcernError: { code, codeName: name, errmsg: name } })
      expect(meansStorageUnavailable(writeConcernError)).to.equal(true)
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

  describe('a configuration fault, whatever retry label the driver gave it', function () {
    // What driver 7.9 makes of a credential refused during the connection handshake.
    const refusedCredential = () => {
      const error = new MongoServerError({ ok: 0, code: 18, codeName: 'AuthenticationFailed', errmsg: 'Authentication failed.' })
      error.addErrorLabel(MongoErrorLabel.HandshakeError)
      error.addErrorLabel(MongoErrorLabel.ResetPool)
      return error
    }
    const cases = [
      { name: 'a refused credential labelled ResetPool', error: refusedCredential() },
      { name: 'Unauthorized (13)', error: new MongoServerError({ ok: 0, code: 13, codeName: 'Unauthorized', errmsg: 'not authorized' }) },
      {
        name: 'UnknownReplWriteConcern (79) as a write concern error',
        error: new MongoWriteConcernError({ ok: 1, n: 1, writeConcernError: { code: 79, codeName: 'UnknownReplWriteConcern', errmsg: 'unknown' } }),
      },
      {
        name: 'UnsatisfiableWriteConcern (100) labelled RetryableWriteError',
        error: new MongoServerError({ ok: 0, code: 100, errmsg: 'Not enough data-bearing nodes', errorLabels: ['RetryableWriteError'] }),
      },
    ]
    for (const { name, error } of cases) {
      it(`${name} is neither an outage nor an unreachable server`, function () {
        expect(meansStorageUnavailable(error)).to.equal(false)
        expect(meansServerUnreachable(error)).to.equal(false)
      })
    }
  })
})

describe('what the MongoDB adapter calls a server it cannot reach', function () {
  const serverError = (code: number) => new MongoServerError({ ok: 0, code, errmsg: String(code) })

  it("mongod's network, not-primary and shutdown codes", function () {
    for (const { code, name } of codesInCategories(['NetworkError', 'NotPrimaryError', 'ShutdownError'])) {
      expect(meansServerUnreachable(serverError(code)), name).to.equal(true)
    }
  })

  it('no server selected in time, a refused connection, a socket error', function () {
    expect(meansServerUnreachable(new MongoServerSelectionError('no primary', { type: 'ReplicaSetNoPrimary' } as never))).to.equal(true)
    expect(meansServerUnreachable(new MongoNetworkError('connect ECONNREFUSED 127.0.0.1:27017'))).to.equal(true)
    expect(meansServerUnreachable(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).to.equal(true)
  })

  it('not a slow server: a reply later than the socket timeout, a time limit, an overloaded or busy node', function () {
    expect(meansServerUnreachable(new MongoNetworkTimeoutError('connection 3 to 127.0.0.1:27017 timed out'))).to.equal(false)
    for (const code of [50, 262, 402, 433, 112, 365]) expect(meansServerUnreachable(serverError(code)), String(code)).to.equal(false)
  })
})
