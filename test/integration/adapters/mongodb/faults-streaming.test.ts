import { faultsUnder } from './faults.suite.js'

faultsUnder('streaming')
