/**
 * Where an adapter or the app reports what happened; fields are structured, never a credential.
 * Callers call it inside a try: a logger that throws loses its line, never the work it reports.
 */
export interface Logger {
  readonly info: (message: string, fields?: Readonly<Record<string, unknown>>) => void
  readonly warn: (message: string, fields?: Readonly<Record<string, unknown>>) => void
  readonly error: (message: string, fields?: Readonly<Record<string, unknown>>) => void
}
