// Types of build-state.mjs, for the TypeScript that imports it (test/support/current-build.ts).
export declare const ROOT: string
export declare const MAIN: string
export declare const BUILD_ARGS: ReadonlyArray<string>
export declare const isBuildCurrent: () => boolean
export declare const forgetFailedBuild: () => void
