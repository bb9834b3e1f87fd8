// The reference servers run as plain JavaScript, as the service does from dist/: a loader such as
// tsx in their process would add its own memory and threads to what is measured.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const SOURCE = new URL('./servers/', import.meta.url)
// Inside bench/, so that the servers' imports of fastify and express resolve in bench's own install
// (scripts/install-tools.mjs), and those of koa and the MongoDB driver in the project's.
const TARGET = new URL('../dist/http/servers/', import.meta.url)

/** Transpiles every reference server to bench/dist/http/servers/ and answers that folder. */
export const buildReferenceServers = (): string => {
  mkdirSync(TARGET, { recursive: true })
  for (const file of readdirSync(SOURCE).filter((name) => name.endsWith('.ts'))) {
    const { outputText } = ts.transpileModule(readFileSync(new URL(file, SOURCE), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: file,
    })
    writeFileSync(new URL(file.replace(/\.ts$/, '.js'), TARGET), outputText)
  }
  return fileURLToPath(TARGET)
}
