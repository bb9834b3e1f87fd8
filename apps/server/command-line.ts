import type { SettingHelp } from './env-codecs.js'

/** What the command line asks for: the help, the version, or the service itself. */
export type Command = 'help' | 'version' | 'start'

/** `--help` or `-h` asks for the help, `--version` or `-v` for the version; anything else starts. */
export const commandOf = (args: ReadonlyArray<string>): Command =>
  args.some((arg) => arg === '--help' || arg === '-h') ? 'help' : args.some((arg) => arg === '--version' || arg === '-v') ? 'version' : 'start'

/**
 * The help `--help` prints: how to start the service and every variable it reads, from the codecs
 * the configuration decodes, so a variable added or a default changed shows here without an edit.
 */
export const helpText = (version: string, settings: Readonly<Record<string, SettingHelp>>): string => {
  const names = Object.keys(settings)
  const width = Math.max(...names.map((name) => name.length))
  const lines = Object.entries(settings).map(
    ([name, { expected, fallback }]) =>
      `  ${name.padEnd(width)}  default ${fallback === undefined ? 'none' : fallback === '' ? 'empty' : fallback}: ${expected}`,
  )
  return [
    `plant-store ${version}: the Plant Store HTTP service`,
    '',
    'Usage: node dist/apps/server/main.js [--help | --version]   (npm start)',
    '',
    'Settings are environment variables, also read from .env in the working directory (the',
    'environment wins). With NODE_ENV=production the service refuses to start on in-memory',
    'storage or a generated token unless ALLOW_IN_MEMORY_STORAGE or ALLOW_GENERATED_TOKEN is on.',
    '',
    'Variables:',
    ...lines,
    '',
    'What each one does: the Configuration section of README.md, and docs/jwt.md for JWT_*.',
    '',
  ].join('\n')
}
