/** A playground error answer as one line: its error code, and its hint when it has one. */
export async function errorText(res: Response): Promise<string> {
  const body = (await res.json().catch(() => ({}))) as { error?: unknown; hint?: unknown };
  const error = typeof body.error === "string" ? body.error : `HTTP ${res.status}`;
  return typeof body.hint === "string" ? `${error}: ${body.hint}` : error;
}
