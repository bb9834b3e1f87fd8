/**
 * Where the HTTP adapter reports what happened; fields are structured, never a credential. The
 * adapter calls it inside a try: a logger that throws loses its line, never the request.
 */
export interface Logger {
  readonly info: (message: string, fields?: Readonly<Record<string, unknown>>) => void
  readonly warn: (message: string, fields?: Readonly<Record<string, unknown>>) => void
  readonly error: (message: string, fields?: Readonly<Record<string, unknown>>) => void
}
