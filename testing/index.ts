// plant-store/testing: the ports' contracts as suites any test runner can run, the broken adapters
// the kit must catch, fakes of the ports and Either assertions. It imports only the core, and uses
// Node's own assert.
export { attemptCase, cannotRunHere, ContractSkipped, registerContract, runContract } from './suite.js'
export type { CaseOutcome, ContractCase, ContractSuite, TestRunner } from './suite.js'
export { boundedPlantStoreContract, plantOf, plantStoreContract } from './plant-store-contract.js'
export type { PlantStoreFixture, PlantStoreFixtureFactory } from './plant-store-contract.js'
export { authenticatorContract, tokenPiecesOf } from './authenticator-contract.js'
export type { AuthenticatorFixture, AuthenticatorFixtureFactory } from './authenticator-contract.js'
export { brokenPlantStores, correctMapStore } from './broken/plant-stores.js'
export { brokenAuthenticators, correctAuthenticator } from './broken/authenticators.js'
export { authenticatorAnswering, unavailablePlantStore } from './fakes.js'
export { expectLeftTag, expectRight } from './either.js'
