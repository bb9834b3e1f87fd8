import { describe, it } from 'node:test'
import { registerWithNodeTest } from '../../../../testing/node-test.js'
import { chosenSuite } from './chosen-suite.js'

// node:test's own describe and it, passed as they are: no cast.
registerWithNodeTest({ describe, it }, chosenSuite)
