// The npm that runs a script (npm sets npm_execpath), else the npm on PATH: so a step a script
// starts runs under the same npm, and a test can hand it a stand-in.
export const npmCommand = (args) => {
  const npmCli = process.env.npm_execpath
  return npmCli === undefined ? ['npm', args] : [process.execPath, [npmCli, ...args]]
}
