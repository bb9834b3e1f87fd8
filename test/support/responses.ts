import { expect } from 'chai'

/**
 * Asserts an Error document as the contract defines it: the status, `application/json`, exactly
 * `error` and `message`, with `error` equal to the status. Hands back the message.
 */
export const expectErrorDocument = async (response: Response, status: number): Promise<string> => {
  expect(response.status, 'status').to.equal(status)
  expect(response.headers.get('content-type')).to.match(/^application\/json\b/)
  const body = (await response.json()) as Record<string, unknown>
  expect(Object.keys(body).sort()).to.deep.equal(['error', 'message'])
  expect(body['error']).to.equal(status)
  expect(body['message']).to.be.a('string').and.not.equal('')
  return body['message'] as string
}

/** Asserts a 200 Plant document, exactly as given: no id, nothing undeclared. */
export const expectPlant = async (response: Response, plant: { name: string; tag?: string }): Promise<void> => {
  expect(response.status, 'status').to.equal(200)
  expect(response.headers.get('content-type')).to.match(/^application\/json\b/)
  expect(await response.json()).to.deep.equal(plant)
}
