import fc from 'fast-check'

/** The default body limit: every hostile text here fits in it, as an attacker's would. */
export const BODY_LIMIT = 64 * 1024

const repeatWithin = (unit: string, fixed: number, count: number): string =>
  unit.repeat(Math.max(0, Math.min(count, Math.floor((BODY_LIMIT - fixed) / unit.length))))

const zeros = (count: number, fixed = 16): string => repeatWithin('0', fixed, count)

/**
 * The shapes that made parsers do more than constant work per byte somewhere: long digit runs
 * (the regex that stripped trailing zeros backtracked on them), deep nesting (recursion), long
 * escaped strings, many keys, repeated keys with equal values (compared deeply), many numbers;
 * each whole, cut short, or as an ignored field of an otherwise valid NewPlant.
 */
const shapes: ReadonlyArray<fc.Arbitrary<string>> = [
  fc.nat({ max: BODY_LIMIT }).map((n) => `1.${zeros(n)}1`),
  fc.nat({ max: BODY_LIMIT }).map((n) => `-0.${zeros(n)}7e5`),
  fc.nat({ max: BODY_LIMIT }).map((n) => `9${zeros(n)}9`),
  fc.nat({ max: BODY_LIMIT }).map((n) => `[2.${zeros(n)}2]`),
  fc.nat({ max: BODY_LIMIT }).map((n) => `-0.${zeros(n)}`),
  fc.nat({ max: BODY_LIMIT }).map((n) => `1${zeros(n)}`),
  fc.nat({ max: BODY_LIMIT }).map((n) => `1e${zeros(n)}1`),
  fc.nat({ max: BODY_LIMIT }).map((n) => `1${zeros(n)}e-${n}`),
  fc.nat({ max: BODY_LIMIT }).map((n) => `${repeatWithin('[', 0, n / 2)}${repeatWithin(']', 0, n / 2)}`),
  fc.nat({ max: BODY_LIMIT }).map((n) => `${repeatWithin('{"a":', 0, n / 6)}1${repeatWithin('}', 0, n / 6)}`),
  fc.nat({ max: BODY_LIMIT }).map((n) => repeatWithin('[', 0, n)),
  fc.nat({ max: BODY_LIMIT }).map((n) => `"${repeatWithin('\\u0041', 2, n)}"`),
  fc.nat({ max: BODY_LIMIT }).map((n) => `"${repeatWithin('\\\\', 2, n)}"`),
  fc.nat({ max: BODY_LIMIT / 8 }).map((n) => `{${Array.from({ length: n }, (_, i) => `"${i}":0`).join(',')}}`.slice(0, BODY_LIMIT)),
  fc.nat({ max: BODY_LIMIT / 16 }).map((n) => `{${Array.from({ length: n }, () => '"a":[[[{"b":[1]}]]]').join(',')}}`.slice(0, BODY_LIMIT)),
  fc.nat({ max: BODY_LIMIT / 4 }).map((n) => `[${Array.from({ length: n }, () => '1.0e0').join(',')}]`.slice(0, BODY_LIMIT)),
]

const whole = fc.oneof(...shapes)

/** A hostile JSON text within the body limit: a pathological shape, maybe cut or wrapped. */
export const hostileJson: fc.Arbitrary<string> = fc.oneof(
  whole,
  fc.tuple(whole, fc.nat()).map(([text, cut]) => text.slice(0, cut % (text.length + 1))),
  whole.map((text) => `{"id":1,"name":"x","ignored":${text}}`.slice(0, BODY_LIMIT)),
)

/** The number the finding was about: 1.000…0001 with 65,500 zeros, 126 bytes gzipped. */
export const longestZeroRun = `1.${'0'.repeat(65_500)}1`

/** CPU time, user and system, that `work` took in this process, in milliseconds. */
export const cpuMillisecondsOf = async (work: () => unknown): Promise<number> => {
  const before = process.cpuUsage()
  await work()
  const { user, system } = process.cpuUsage(before)
  return (user + system) / 1000
}
