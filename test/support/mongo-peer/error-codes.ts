// mongod's error codes and their categories, read from the copy of its error_codes.yml kept
// beside this file: what the peer labels its errors from, and what the adapter's tables are held to.
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'

/** One code of error_codes.yml. */
export interface ServerErrorCode {
  readonly code: number
  readonly name: string
  readonly categories: ReadonlyArray<string>
}

interface ErrorCodesFile {
  readonly error_categories: ReadonlyArray<string>
  readonly error_codes: ReadonlyArray<{ code: number; name: string; categories?: ReadonlyArray<string> }>
}

const file = parse(readFileSync(new URL('./error_codes.yml', import.meta.url), 'utf8')) as ErrorCodesFile

/** The categories the file declares. */
export const ERROR_CATEGORIES: ReadonlyArray<string> = file.error_categories

/** Every code of the file, in its order. */
export const SERVER_ERROR_CODES: ReadonlyArray<ServerErrorCode> = file.error_codes.map(({ code, name, categories }) => ({
  code,
  name,
  categories: categories ?? [],
}))

const byCode = new Map(SERVER_ERROR_CODES.map((entry) => [entry.code, entry]))

/** The entry of a code, or undefined for a code mongod does not have. */
export const serverErrorCode = (code: number): ServerErrorCode | undefined => byCode.get(code)

/** The codes in any of `categories`. */
export const codesInCategories = (categories: ReadonlyArray<string>): ReadonlyArray<ServerErrorCode> =>
  SERVER_ERROR_CODES.filter((entry) => entry.categories.some((category) => categories.includes(category)))

/** Whether mongod puts `code` in `category`. */
export const isInCategory = (code: number, category: string): boolean =>
  serverErrorCode(code)?.categories.includes(category) === true
