import {
  boundedPlantStoreContract as boundedSuite,
  plantStoreContract as suite,
  registerContract,
  type PlantStoreFixtureFactory,
} from '../../testing/index.js'
import { mochaRunner } from './mocha-runner.js'

// The project's storage adapters are held to the kit it ships (plant-store/testing), run by mocha.
export type { PlantStoreFixture } from '../../testing/index.js'

export const plantStoreContract = (label: string, fixture: PlantStoreFixtureFactory): void => registerContract(mochaRunner, suite(label, fixture))

export const boundedPlantStoreContract = (label: string, room: number, fixture: PlantStoreFixtureFactory): void =>
  registerContract(mochaRunner, boundedSuite(label, room, fixture))
