import { slowWritesUnder } from './slow-writes.suite.js'

slowWritesUnder('streaming')
