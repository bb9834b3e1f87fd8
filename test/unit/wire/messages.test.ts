import { expect } from 'chai'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import {
  ERROR_STATUSES,
  ErrorDocumentCodec,
  invalidNewPlantMessage,
  jsonViolations,
  readErrorDocument,
  storageFullMessage,
  storageLimitFrom,
  unavailableMessage,
  unavailableReasonFrom,
  violationsFromMessage,
  type UnavailableReason,
} from '../../../wire/index.js'
import { decodeNewPlant, type Violation } from '../../../core/index.js'

// What the service writes, read back as the client reads it: each message's reader beside its
// writer, and read(write(x)) = x for every x the writer is given.

// A violation as the core can make one: a path of field names, an expectation in words, and for
// a field (never the whole body) perhaps the mark that it was missing.
const violation: fc.Arbitrary<Violation> = fc
  .record(
    {
      path: fc.oneof(fc.constant(''), fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.[\]]{0,20}$/)),
      expected: fc.string({ minLength: 1, unit: 'grapheme' }).filter((text) => !text.includes('; ') && text.trim() === text),
      missing: fc.constant(true as const),
    },
    { requiredKeys: ['path', 'expected'] },
  )
  .map(({ path, expected, missing }) => (path === '' || missing === undefined ? { path, expected } : { path, expected, missing }))

describe('the HTTP API module', function () {
  describe('the 400 that names fields', function () {
    it('reads back the violations it was written with', function () {
      fc.assert(
        fc.property(fc.array(violation, { minLength: 1, maxLength: 5 }), (violations) => {
          expect(violationsFromMessage(invalidNewPlantMessage(violations))).to.deep.equal(violations)
        }),
      )
    })

    it("reads back the core's own violations, for any body", function () {
      fc.assert(
        fc.property(fc.jsonValue(), fc.anything(), (body, name) => {
          const decoded = decodeNewPlant(typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body, name } : body)
          if (E.isLeft(decoded) && decoded.left._tag === 'InvalidInput') {
            const { violations } = decoded.left
            expect(violationsFromMessage(invalidNewPlantMessage(violations))).to.deep.equal(violations)
          }
        }),
      )
    })

    it("reads back the core's violations worded for JSON text, for any JSON body", function () {
      fc.assert(
        fc.property(fc.jsonValue(), fc.jsonValue(), (body, id) => {
          const sent = typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body, id } : body
          const decoded = decodeNewPlant(sent)
          if (E.isLeft(decoded) && decoded.left._tag === 'InvalidInput') {
            const worded = jsonViolations(sent, decoded.left.violations)
            expect(worded.map((v) => v.path)).to.deep.equal(decoded.left.violations.map((v) => v.path))
            expect(violationsFromMessage(invalidNewPlantMessage(worded))).to.deep.equal(worded)
            for (const { expected } of worded) expect(expected).not.to.match(/bigint|JS number/)
          }
        }),
      )
    })

    it('says a missing field is missing, and what it must be', function () {
      const sent = { name: 'Fern' }
      const decoded = decodeNewPlant(sent)
      if (E.isRight(decoded) || decoded.left._tag !== 'InvalidInput') return expect.fail('a NewPlant without an id is refused')
      expect(invalidNewPlantMessage(jsonViolations(sent, decoded.left.violations))).to.equal(
        'Invalid NewPlant: `id` is missing: it must be a JSON number (an integer from -9223372036854775808 to 9223372036854775807).',
      )
    })

    it('answers undefined for a 400 that names no field', function () {
      for (const message of [
        'Send a JSON object: the request body is not well-formed JSON.',
        'Invalid NewPlant: something else.',
        'Invalid NewPlant: `id` must be a string',
      ]) {
        expect(violationsFromMessage(message), message).to.equal(undefined)
      }
    })
  })

  describe('the 503s', function () {
    it('tells each cause from the others by its whole message', function () {
      for (const reason of ['Storage', 'IdentityProvider', 'ShuttingDown', 'DecodersBusy', 'ConnectionShare', 'Deadline'] satisfies ReadonlyArray<UnavailableReason>) {
        expect(unavailableReasonFrom(unavailableMessage(reason))).to.equal(reason)
      }
      expect(unavailableReasonFrom('The identity provider is fine.')).to.equal(undefined)
    })
  })

  describe('the 507', function () {
    it('reads back the bound it names, whatever the bound says', function () {
      fc.assert(
        fc.property(fc.string({ unit: 'grapheme' }), (limit) => {
          expect(storageLimitFrom(storageFullMessage(limit))).to.equal(limit)
        }),
      )
      expect(storageLimitFrom('Storage is unavailable; try again shortly.')).to.equal(undefined)
    })
  })

  describe('the Error document', function () {
    it('is read only with a status of the API that matches the answer', function () {
      for (const status of ERROR_STATUSES) {
        expect(readErrorDocument({ error: status, message: 'm' }, status)).to.deep.equal(E.right({ error: status, message: 'm' }))
      }
      expect(E.isLeft(readErrorDocument({ error: 418, message: 'm' }, 418))).to.equal(true)
      expect(E.isLeft(readErrorDocument({ error: 400, message: 'm' }, 409))).to.equal(true)
      expect(E.isLeft(readErrorDocument({ error: 400 }, 400))).to.equal(true)
      expect(ErrorDocumentCodec.is({ error: 503, message: '' })).to.equal(true)
    })
  })
})
