/** Where the HTTP adapter reports what happened; fields are structured, never a credential. */
export interface Logger {
  readonly info: (message: string, fields?: Readonly<Record<string, unknown>>) => void
  readonly warn: (message: string, fields?: Readonly<Record<string, unknown>>) => void
  readonly error: (message: string, fields?: Readonly<Record<string, unknown>>) => void
}
