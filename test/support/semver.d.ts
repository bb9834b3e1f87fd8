// The two functions of semver (installed with the development tools, by ESLint's plugins and
// mongodb-memory-server) that the engines test uses; semver ships no declarations.
declare module 'semver' {
  interface SemVer {
    readonly version: string
  }
  const semver: {
    readonly satisfies: (version: string, range: string) => boolean
    readonly minVersion: (range: string) => SemVer | null
  }
  export default semver
}
