// Mercado Libre's error bodies: {message, error, status, cause[]}, with validation causes {department, cause_id, type,
// code, references, message}. Messages are in English, worded as the real API words them.

export type Cause = {
  department: string;
  cause_id: number;
  type: "error" | "warning";
  code: string;
  references: string[];
  message: string;
};

export class MeliError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    override readonly cause: Cause[] = [],
    /** Fields the OAuth endpoint adds (error_description). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  body() {
    return { ...this.extra, message: this.message, error: this.error, status: this.status, cause: this.cause };
  }
}

/**
 * One cause of a refusal. The ids, codes and messages are docs/12-products/validaciones.md's table where it has the
 * case (and descripcion-de-articulos.md, trabajar-con-imagenes.md, identificadores-de-productos.md,
 * 21-real-estate/variaciones-para-inmuebles.md); a refusal no page documents keeps a sandbox id of its own, never
 * one the table gives another meaning (UNDOCUMENTED below).
 */
export const cause = (
  cause_id: number,
  code: string,
  references: string[],
  message: string,
  type: Cause["type"] = "error",
  department = "items",
): Cause => ({
  department,
  cause_id,
  type,
  code,
  references,
  message,
});

/**
 * Ids of refusals the documentation shows no cause id for (the real API has some; these are the sandbox's own, chosen
 * outside every documented id so that none reads as a documented cause).
 */
export const UNDOCUMENTED = {
  siteInvalid: 90108,
  currencyInvalid: 90111,
  buyingModeInvalid: 90103,
  listingTypeInvalid: 90104,
  conditionInvalid: 90105,
  titleTooLong: 90117,
  notModifiable: 90300,
  variationStockOnItem: 90301,
  statusInvalid: 90302,
  activateWithoutStock: 90303,
  variationsNotAllowed: 90360,
  variationsMax: 90361,
  variationIdInvalid: 90365,
  combinationsDuplicated: 90373,
  variationPictures: 90206,
  familyNameVariations: 90790,
  shippingDimensions: 90400,
  pictureInvalid: 90200,
  priceNotPositive: 90101,
  quantityInvalid: 90102,
} as const;

/** A 400 with the causes; warnings alone never get here (they do not block). */
export const validationError = (causes: Cause[]) => new MeliError(400, "validation_error", "Validation error", causes);

export const badRequest = (message: string, error = "bad_request") => new MeliError(400, error, message);
export const notFound = (message: string) => new MeliError(404, "not_found", message);
export const forbidden = (message = "access_denied") => new MeliError(403, "access_denied", message);
export const invalidToken = () => new MeliError(401, "invalid_token", "invalid access token");

/** What a status answers when nothing more specific is known (error injection, framework errors). */
export function defaultBody(status: number) {
  const known: Record<number, [string, string]> = {
    400: ["bad_request", "Bad request"],
    401: ["invalid_token", "invalid access token"],
    403: ["forbidden", "forbidden"],
    404: ["not_found", "Resource not found"],
    409: ["conflict", "Conflict"],
    413: ["request_entity_too_large", "Request entity too large"],
    415: ["unsupported_media_type", "Unsupported media type"],
    429: ["local_rate_limited", "Too Many Requests"],
    500: ["internal_error", "Internal server error"],
    502: ["bad_gateway", "Bad Gateway"],
    503: ["service_unavailable", "Service unavailable"],
    504: ["gateway_timeout", "Gateway Timeout"],
  };
  const [error, message] = known[status] ?? (status >= 500 ? known[500] : known[400]);
  return { message, error, status, cause: [] as Cause[] };
}
