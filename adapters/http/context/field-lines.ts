/**
 * How many field lines of a request carry the field `name` (given in lower case), from its raw
 * headers: Node keeps only the first of several for the fields it does not join (Host,
 * Authorization, Content-Type...), silently. Counted without building a list.
 */
export const fieldLines = (rawHeaders: ReadonlyArray<string>, name: string): number => {
  let count = 0
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const field = rawHeaders[index]
    if (field !== undefined && field.length === name.length && field.toLowerCase() === name) count += 1
  }
  return count
}
