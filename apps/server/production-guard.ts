/** What the configuration chose that production must not get by accident. */
export interface ProductionChoices {
  /** Whether NODE_ENV is `production`. */
  readonly production: boolean
  /** No MONGODB_URI: plants live in the process and die with it. */
  readonly inMemoryStorage: boolean
  /** No PLANT_STORE_TOKENS and no JWT_*: the service makes a token of its own at each start. */
  readonly generatedToken: boolean
  readonly allowInMemoryStorage: boolean
  readonly allowGeneratedToken: boolean
}

/**
 * The defaults that make a first start easy are wrong for production, where nobody reads a token
 * printed on stderr and a restart loses every plant held in memory. With NODE_ENV=production each
 * is refused, naming the variable missing and why, unless its ALLOW_ variable says it is meant.
 */
export const productionRefusals = (choices: ProductionChoices): ReadonlyArray<string> =>
  choices.production
    ? [
        ...(choices.inMemoryStorage && !choices.allowInMemoryStorage
          ? [
              'MONGODB_URI: expected with NODE_ENV=production: without it plants are kept in process memory and lost when the process stops (set ALLOW_IN_MEMORY_STORAGE=on to run so on purpose)',
            ]
          : []),
        ...(choices.generatedToken && !choices.allowGeneratedToken
          ? [
              'PLANT_STORE_TOKENS: expected with NODE_ENV=production, or JWT_* settings: without either the service accepts only a token it generates at each start and prints on stderr (set ALLOW_GENERATED_TOKEN=on to run so on purpose)',
            ]
          : []),
      ]
    : []
