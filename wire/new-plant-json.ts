import { INT64_MAX, INT64_MIN, NewPlant, type Violation } from '../core/index.js'
import { declaredFields } from './declared-fields.js'

// A NewPlant as JSON text, both ways: how a client writes the body of a create, and how the
// service words what is wrong in a body it read. The service reads the text with the exact JSON
// reader (plant-store/json) and the core's codec; a property test proves that reading what is
// written here gives back the NewPlant that was written.

const NEW_PLANT_FIELDS = declaredFields(NewPlant).map(({ name }) => name)

/**
 * The NewPlant as JSON text, each field its codec declares in its order, with an id as its exact
 * digits: JSON.stringify cannot write a bigint, and a JS number would round ids above 2^53.
 */
export const newPlantJsonText = (plant: NewPlant): string => {
  const fields: Readonly<Record<string, unknown>> = NewPlant.encode(plant)
  const members = NEW_PLANT_FIELDS.flatMap((name) => (fields[name] === undefined ? [] : [`${JSON.stringify(name)}:${jsonValue(fields[name])}`]))
  return `{${members.join(',')}}`
}

const jsonValue = (value: unknown): string => (typeof value === 'bigint' ? value.toString() : JSON.stringify(value))

// The core's words for the fields of a NewPlant, as its codecs write them.
const INT64_RANGE = `an integer from ${INT64_MIN} to ${INT64_MAX}`
const A_STRING = 'a string'
const A_JSON_OBJECT = 'a JSON object'

/** What a client's JSON text held where a field was expected, as the exact JSON reader gives it. */
type Sent = 'missing' | 'integer' | 'fraction' | 'string' | 'true' | 'false' | 'null' | 'array' | 'object'

/**
 * The core's violations worded for a client that sent JSON text: each says what the field must be
 * in JSON's terms and, when the client sent something else, what that was ("a JSON number (an
 * integer from … to …), not a string"). The core speaks to embedders, who hand it JS values (its
 * "as a bigint, not a JS number" is for them); a JSON text has neither bigints nor JS numbers, and
 * a person reads "1" as an integer unless told it is a string. `sent` is the value the exact JSON
 * reader made of the body: integers of up to 20 digits as bigints, every other number as a double.
 */
export const jsonViolations = (sent: unknown, violations: ReadonlyArray<Violation>): ReadonlyArray<Violation> =>
  violations.map(({ path, expected }) => {
    const kind = sentKind(valueAt(sent, path))
    const worded = inJsonTerms(expected, kind)
    return kind === 'missing' && path !== '' ? { path, expected: worded, missing: true } : { path, expected: worded }
  })

const inJsonTerms = (expected: string, sent: Sent): string => {
  if (expected.startsWith(INT64_RANGE)) {
    switch (sent) {
      case 'missing':
        return `a JSON number (${INT64_RANGE})`
      case 'integer':
        return `${INT64_RANGE}, not a number outside that range`
      case 'fraction':
        return `${INT64_RANGE}, not a number with a fraction`
      default:
        return `a JSON number (${INT64_RANGE}), not ${described(sent)}`
    }
  }
  if (expected === A_STRING && sent !== 'missing' && sent !== 'string') return `${A_STRING}, not ${described(sent)}`
  if (expected === A_JSON_OBJECT && sent !== 'missing' && sent !== 'object') return `${A_JSON_OBJECT}, not ${described(sent)}`
  return expected
}

const described = (sent: Sent): string => {
  switch (sent) {
    case 'integer':
    case 'fraction':
      return 'a number'
    case 'string':
      return 'a string'
    case 'array':
      return 'an array'
    case 'object':
      return 'an object'
    case 'missing':
      return 'nothing'
    default:
      return sent
  }
}

const sentKind = (value: unknown): Sent => {
  switch (typeof value) {
    case 'undefined':
      return 'missing'
    case 'bigint':
      return 'integer'
    case 'number':
      // The reader keeps as a double an integer too long for an int64 (1e400 is Infinity), and
      // reads as NaN a fraction whose nearest double is integral.
      return Number.isInteger(value) || value === Infinity || value === -Infinity ? 'integer' : 'fraction'
    case 'string':
      return 'string'
    case 'boolean':
      return value ? 'true' : 'false'
    default:
      return value === null ? 'null' : Array.isArray(value) ? 'array' : 'object'
  }
}

// The value a violation's path names in what was sent: '' is the whole body, `a.b` a member of a
// member. Only own members count, as the core reads them.
const valueAt = (sent: unknown, path: string): unknown => {
  if (path === '') return sent
  let value = sent
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}
