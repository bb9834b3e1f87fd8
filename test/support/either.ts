import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'

/** Asserts a Right and hands back its value, so a test reads as one line. */
export const expectRight = <L, R>(result: E.Either<L, R>): R => {
  if (E.isLeft(result)) expect.fail(`expected Right, got Left ${show(result.left)}`)
  return result.right
}

/** Asserts a Left whose `_tag` is the one given, and hands back the error narrowed to it. */
export const expectLeftTag = <L extends { readonly _tag: string }, T extends L['_tag']>(
  result: E.Either<L, unknown>,
  tag: T,
): Extract<L, { _tag: T }> => {
  if (E.isRight(result)) expect.fail(`expected Left ${tag}, got Right ${show(result.right)}`)
  expect(result.left._tag).to.equal(tag)
  return result.left as Extract<L, { _tag: T }>
}

const show = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))
