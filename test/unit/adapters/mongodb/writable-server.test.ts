import { expect } from 'chai'
import { notWritableStateOf, serverTypeOf } from '../../../../adapters/mongodb/writable-server.js'

// Readiness reads the server's own hello: what each kind of server answers, and what readiness
// makes of it (the SDAM specification's server types).
describe('what a hello reply says of a server', function () {
  const member = { ok: 1, setName: 'rs0', me: 'db1:27017' }
  const CASES = [
    { what: 'a primary', hello: { ...member, isWritablePrimary: true, secondary: false }, type: 'RSPrimary', writable: true },
    { what: 'a primary, in legacy words', hello: { ...member, ismaster: true, secondary: false }, type: 'RSPrimary', writable: true },
    { what: 'a secondary', hello: { ...member, isWritablePrimary: false, secondary: true }, type: 'RSSecondary', writable: false },
    { what: 'an arbiter', hello: { ...member, isWritablePrimary: false, secondary: false, arbiterOnly: true }, type: 'RSArbiter', writable: false },
    { what: 'a hidden member', hello: { ...member, isWritablePrimary: false, secondary: true, hidden: true }, type: 'RSOther', writable: false },
    { what: 'a member starting up', hello: { ...member, isWritablePrimary: false, secondary: false }, type: 'RSOther', writable: false },
    { what: 'a member of no initiated set', hello: { ok: 1, isWritablePrimary: false, isreplicaset: true }, type: 'RSGhost', writable: false },
    { what: 'a mongos', hello: { ok: 1, isWritablePrimary: true, msg: 'isdbgrid' }, type: 'Mongos', writable: true },
    { what: 'a standalone', hello: { ok: 1, isWritablePrimary: true }, type: 'Standalone', writable: true },
    { what: 'a failed reply', hello: { ok: 0 }, type: 'Unknown', writable: false },
  ] as const
  for (const { what, hello, type, writable } of CASES) {
    it(`${what}: ${type}, ${writable ? 'writable' : 'not writable'}`, function () {
      expect(serverTypeOf(hello)).to.equal(type)
      expect(notWritableStateOf([{ address: 'db1:27017', type: serverTypeOf(hello) }]) === undefined).to.equal(writable)
    })
  }
})
