/** The OpenTMS version, shown in the OpenAPI document and in the User-Agent of outgoing calls. */
export const VERSION = '0.1.0';
