// The logger port is the core's, shared by the app; embedders still find it here.
export type { Logger } from '../../../core/index.js'
