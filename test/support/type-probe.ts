import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** A compiler error, as `tsc` would print it: the probe's line (1-based), the code and the text. */
export interface CompileError {
  readonly line: number
  readonly code: number
  readonly message: string
}

/**
 * Type-checks a source text as if it stood at `path` in the project, with the project's
 * compiler options, and answers the errors found in it. Nothing is written to disk.
 */
export const typeErrorsOf = (path: string, lines: ReadonlyArray<string>): ReadonlyArray<CompileError> => {
  const probe = join(ROOT, path)
  const configFile = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (file) => ts.sys.readFile(file))
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT)
  const host = ts.createCompilerHost({ ...options, noEmit: true })
  const text = lines.join('\n')
  const program = ts.createProgram({
    rootNames: [probe],
    options: { ...options, noEmit: true },
    host: {
      ...host,
      fileExists: (file) => file === probe || host.fileExists(file),
      readFile: (file) => (file === probe ? text : host.readFile(file)),
      getSourceFile: (file, language, onError, fresh) =>
        file === probe ? ts.createSourceFile(file, text, language) : host.getSourceFile(file, language, onError, fresh),
    },
  })
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ({
    line: diagnostic.file === undefined || diagnostic.start === undefined ? 0 : diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1,
    code: diagnostic.code,
    message: `${diagnostic.file?.fileName === probe ? '' : `${diagnostic.file?.fileName ?? 'global'}: `}${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
  }))
}
