import assert from 'node:assert/strict'
import * as E from 'fp-ts/lib/Either.js'
import { show } from './rules.js'

/**
 * Asserts a Right and hands back its value, so a test reads as one line.
 *
 * @example
 * ```ts
 * import { newPlant } from 'plant-store/core'
 * import { expectRight } from 'plant-store/testing'
 *
 * const plant = expectRight(newPlant({ id: 1n, name: 'Fern' })) // throws an AssertionError on a Left
 * ```
 */
export const expectRight = <L, R>(result: E.Either<L, R>): R => {
  if (E.isLeft(result)) return assert.fail(`expected Right, got Left ${show(result.left)}`)
  return result.right
}

/**
 * Asserts a Left whose `_tag` is the one given, and hands back the error narrowed to it.
 *
 * @example
 * ```ts
 * import { newPlant } from 'plant-store/core'
 * import { expectLeftTag } from 'plant-store/testing'
 *
 * const error = expectLeftTag(newPlant({ id: 2n ** 64n, name: 'Fern' }), 'InvalidInput')
 * console.log(error.violations) // the id is beyond the int64 range
 * ```
 */
export const expectLeftTag = <L extends { readonly _tag: string }, T extends L['_tag']>(result: E.Either<L, unknown>, tag: T): Extract<L, { _tag: T }> => {
  if (E.isRight(result)) return assert.fail(`expected Left ${tag}, got Right ${show(result.right)}`)
  assert.equal(result.left._tag, tag, `expected Left ${tag}, got Left ${show(result.left)}`)
  return result.left as Extract<L, { _tag: T }>
}
