import type { NewPlant } from '../../core/index.js'
import { NewPlant as NewPlantCodec } from '../../core/index.js'
import { expectRight } from './either.js'

/** A NewPlant built through the codec, as the domain would have it. */
export const plant = (id: bigint, name: string, tag?: string): NewPlant =>
  expectRight(NewPlantCodec.decode(tag === undefined ? { id, name } : { id, name, tag }))
