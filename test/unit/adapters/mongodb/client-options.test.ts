import { expect } from 'chai'
import { MongoClient } from 'mongodb'
import { clientOptionsFor, namesWriteConcernTimeout, resolveTimeouts, writeConcernTimeoutWithin } from '../../../../adapters/mongodb/client-options.js'

// What the driver will do is read back from a client made with the adapter's options: the
// client parses the connection string and options together, as it will in the service.
const clientFor = (uri: string): MongoClient => new MongoClient(uri, clientOptionsFor(uri, resolveTimeouts()))
const effective = (uri: string): MongoClient['options'] => clientFor(uri).options

// The driver's WriteConcern carries deprecated aliases too (j, wtimeout); these are the settings.
const writeConcernOf = ({ writeConcern }: MongoClient['options']): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries({ w: writeConcern?.w, journal: writeConcern?.journal, wtimeoutMS: writeConcern?.wtimeoutMS }).filter(
      ([, value]) => value !== undefined,
    ),
  )

describe('MongoDB client options', function () {
  describe('by default', function () {
    const options = effective('mongodb://db.example:27017/?replicaSet=rs0')

    it('acknowledges a write once a majority has journaled it; the wait for that is bounded per insert, not by the client', function () {
      expect(writeConcernOf(options)).to.deep.equal({ w: 'majority', journal: true })
    })

    it('lets the server wait for the write concern for nearly all the time an insert has left, and answer before its deadline', function () {
      for (const msLeft of [5000, 1500, 1000, 20, 7, 1, 0.4]) {
        const wtimeoutMS = writeConcernTimeoutWithin(msLeft)
        expect(Number.isInteger(wtimeoutMS), `${msLeft} ms left`).to.equal(true)
        // 0 would be no bound at all.
        expect(wtimeoutMS, `${msLeft} ms left`).to.be.at.least(1)
        if (msLeft >= 20) {
          expect(wtimeoutMS, `${msLeft} ms left`).to.be.below(msLeft)
          // A majority slow by 0.9 of a fresh deadline is waited for.
          expect(wtimeoutMS, `${msLeft} ms left`).to.be.above(0.9 * msLeft)
        }
      }
    })

    it('leaves that bound to the connection string when it names one, in any letter case', function () {
      expect(namesWriteConcernTimeout('mongodb://db.example/?wtimeoutMS=250')).to.equal(true)
      expect(namesWriteConcernTimeout('mongodb://db.example/?WTIMEOUTMS=250')).to.equal(true)
      expect(namesWriteConcernTimeout('mongodb://db.example/?wtimeout=250')).to.equal(true)
      expect(namesWriteConcernTimeout('mongodb://db.example/?w=1')).to.equal(false)
      expect(namesWriteConcernTimeout('mongodb://db.example')).to.equal(false)
    })

    it('retries a write once after a failover or a dropped connection', function () {
      expect(options.retryWrites).to.equal(true)
    })

    it('bounds server selection and connecting; the call deadline bounds the wait for a connection and a reply', function () {
      expect(options.serverSelectionTimeoutMS).to.equal(3000)
      expect(options.connectTimeoutMS).to.equal(3000)
      // The deadline's abort signal ends those waits (work-within-deadline.test.ts, faults.suite.ts);
      // the driver's own timers for them would cost it a timer per operation.
      expect(options.socketTimeoutMS).to.equal(0)
      expect(options.waitQueueTimeoutMS).to.equal(0)
    })

    it('reads int64 values, ids included, as bigint', function () {
      expect(clientFor('mongodb://db.example').bsonOptions.useBigInt64).to.equal(true)
    })
  })

  describe('when the connection string says otherwise, it wins', function () {
    it('w=1 means acknowledged by the primary alone, still journaled', function () {
      expect(writeConcernOf(effective('mongodb://db.example/?w=1'))).to.deep.equal({ w: 1, journal: true })
    })

    // Each setting named alone, and every pair: the one named changes, the others keep the defaults.
    const DEFAULTS = { w: 'majority', journal: true }
    const NAMED = { w: ['w=2', 2], journal: ['journal=false', false], wtimeoutMS: ['wtimeoutMS=250', 250] } as const
    const names = Object.keys(NAMED) as Array<keyof typeof NAMED>
    for (const combination of [...names.map((n) => [n]), ...names.flatMap((a, i) => names.slice(i + 1).map((b) => [a, b]))]) {
      it(`naming ${combination.join(' and ')} changes ${combination.length === 1 ? 'that setting' : 'those settings'} alone`, function () {
        const query = combination.map((name) => NAMED[name][0]).join('&')
        const expected = { ...DEFAULTS, ...Object.fromEntries(combination.map((name) => [name, NAMED[name][1]])) }
        expect(writeConcernOf(effective(`mongodb://db.example/?${query}`))).to.deep.equal(expected)
      })
    }

    it('journal=false and wtimeoutMS are the operator’s to choose too', function () {
      const options = effective('mongodb://db.example/?w=majority&journal=false&wtimeoutMS=250')
      expect(writeConcernOf(options)).to.deep.equal({ w: 'majority', journal: false, wtimeoutMS: 250 })
    })

    it('retryWrites=false turns the driver’s retry off', function () {
      expect(effective('mongodb://db.example/?retryWrites=false').retryWrites).to.equal(false)
    })

    it('timeouts in the string, in any letter case, replace the configured ones', function () {
      const options = effective('mongodb://db.example/?SERVERSELECTIONTIMEOUTMS=1234&connectTimeoutMS=99&socketTimeoutMS=0')
      expect(options.serverSelectionTimeoutMS).to.equal(1234)
      expect(options.connectTimeoutMS).to.equal(99)
      expect(options.socketTimeoutMS).to.equal(0)
    })
  })

  describe('timeouts', function () {
    it('default to a 5 s operation, 3 s to select a server and 3 s to connect, a new client after 10 s unreachable, 1 s for a readiness ping, a configuration fault held 30 s', function () {
      expect(resolveTimeouts()).to.deep.equal({
        operationMs: 5000,
        serverSelectionMs: 3000,
        connectMs: 3000,
        replaceClientAfterMs: 10_000,
        readinessMs: 1000,
        configurationFaultHeldMs: 30_000,
      })
    })

    it('never wait longer for a server or a connection than for the whole operation', function () {
      expect(resolveTimeouts({ operationMs: 2000 })).to.deep.equal({
        operationMs: 2000,
        serverSelectionMs: 2000,
        connectMs: 2000,
        replaceClientAfterMs: 4000,
        readinessMs: 1000,
        configurationFaultHeldMs: 30_000,
      })
    })

    it('keep each one given', function () {
      const given = { operationMs: 900, serverSelectionMs: 700, connectMs: 100, replaceClientAfterMs: 3000, readinessMs: 400, configurationFaultHeldMs: 5000 }
      expect(resolveTimeouts(given)).to.deep.equal(given)
    })
  })
})
