import { faultsUnder } from './faults.suite.js'

faultsUnder('polling')
