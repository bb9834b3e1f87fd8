import { describe, it } from 'mocha'
import { registerWithMocha } from '../../../../testing/mocha.js'
import { chosenSuite } from './chosen-suite.js'

// mocha's describe and it, passed as they are: no cast.
registerWithMocha({ describe, it }, chosenSuite)
