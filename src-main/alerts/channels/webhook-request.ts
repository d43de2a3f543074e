/** What a format turns an AlertMessage into: where to POST and the JSON body that service documents. */
export interface WebhookRequest {
  /** The URL to POST to (for PagerDuty without its routing_key, which goes in the body). */
  url: string;
  body: unknown;
}

/** Thrown for a webhook URL a format cannot use; the message says what the URL must look like (and never repeats it). */
export class AlertWebhookError extends Error {}
