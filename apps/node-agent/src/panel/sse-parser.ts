/** One server-sent event: its name (`message` when none was given), data and id. */
export interface ServerSentEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * An incremental parser of `text/event-stream` (the WHATWG rules that matter here): lines end with
 * LF, CRLF or CR; `:` starts a comment; `data` lines join with LF; a blank line dispatches.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private id: string | undefined;
  private sawCr = false;

  /** Feeds a chunk of text; returns the events it completed. */
  push(chunk: string): ServerSentEvent[] {
    let text = chunk;
    // A CR at the end of the last chunk already ended a line: skip the LF of its CRLF.
    if (this.sawCr && text.startsWith('\n')) text = text.slice(1);
    this.sawCr = text.endsWith('\r');
    this.buffer += text;
    const events: ServerSentEvent[] = [];
    const lines = this.buffer.split(/\r\n|\r|\n/);
    this.buffer = lines.pop() ?? '';
    for (const line of lines) {
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  private line(line: string): ServerSentEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return undefined;
  }

  private dispatch(): ServerSentEvent | undefined {
    const event =
      this.data.length > 0
        ? { event: this.event || 'message', data: this.data.join('\n'), ...(this.id ? { id: this.id } : {}) }
        : undefined;
    this.event = '';
    this.data = [];
    return event;
  }
}
