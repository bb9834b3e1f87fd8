// The two functions of semver (installed with the development tools, by ESLint's plugins and
// mongodb-memory-server) that the engines and Node lines tests use; semver ships no declarations.
declare module 'semver' {
  interface SemVer {
    readonly version: string
    readonly major: number
  }
  const semver: {
    readonly satisfies: (version: string, range: string) => boolean
    readonly minVersion: (range: string) => SemVer | null
  }
  export default semver
}
