// The README's example of the typed client, of which it shows an excerpt;
// test/e2e/package-install.test.ts runs it against examples/http-service.ts, and
// test/e2e/quick-start.test.ts against the quick start's service, as the quick start leaves it.
import { createPlantStoreClient } from 'plant-store/client'

const client = createPlantStoreClient({
  baseUrl: process.env['PLANT_STORE_URL'] ?? 'http://127.0.0.1:3000',
  token: process.env['TOKEN'] ?? 'my-static-token-0123456789',
})

// The id travels as its exact digits: 2^63 - 1 arrives as 9223372036854775807, not rounded.
const result = await client.promises.createPlant({ id: 9223372036854775807n, name: 'Monstera', tag: 'aroid' })
if (result._tag === 'Right') console.log('created', result.right) // a replay answers the same
else {
  const error = result.left
  switch (error._tag) {
    case 'PlantConflict':
      console.log(`another plant already has id ${error.id}`)
      break
    case 'InvalidInput':
      console.log(error.violations.map((v) => `${v.path} must be ${v.expected}`).join('; '))
      break
    case 'StorageUnavailable':
    case 'AuthenticationUnavailable':
      console.log(`unavailable: try again in ${error.retryAfterSeconds ?? 1} s`)
      break
    case 'TransportFailure':
      console.log(`no answer (${error.reason}): sending the same plant again is safe`)
      break
    default:
      console.log(error._tag) // InvalidInput, Unauthenticated, InsufficientScope, ServiceError, UnexpectedResponse
  }
  process.exitCode = 1
}
