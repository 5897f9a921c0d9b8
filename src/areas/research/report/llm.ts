import type { Config } from '../../../config.js';
import type { WriterInput, WrittenReport } from './markdown.js';

const MAX_PROMPT_CHARS = 60_000;
const MAX_CONTENT_CHARS = 100_000;

export const llmConfigured = (config: Config) => !!(config.LLM_BASE_URL && config.LLM_MODEL);

const INSTRUCTIONS = {
  brief: 'Write a brief report: a summary of 2 to 4 sentences, then a "## Key findings" section of 3 to 6 bullet points.',
  longform:
    'Write a full report: a "## Summary" section, a "## Key findings" section of bullet points, then sections ("### …") grouping the findings by theme.',
};

function prompt({ topic, mode, selection }: WriterInput): string {
  const lines: string[] = [];
  let size = 0;
  for (const p of selection.passages) {
    const src = selection.sources[p.source - 1];
    const entry = `[${p.source}] ${src.title}\n${p.text}\n`;
    if (size + entry.length > MAX_PROMPT_CHARS) break;
    lines.push(entry);
    size += entry.length;
  }
  return [
    `Topic: ${topic}`,
    '',
    'Passages, each tagged with the number of its source:',
    '',
    lines.join('\n'),
    INSTRUCTIONS[mode],
    'Use only the passages. Cite every statement with its source number in square brackets, like [2]. Do not add a list of sources.',
    'Answer with a JSON object: {"summary": "<the summary as plain text with citations>", "content": "<the report as Markdown>"}.',
  ].join('\n');
}

/**
 * A report written by an OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM) from the gathered
 * passages. Asks for JSON; a model that answers plain Markdown still gives a report (its first paragraph becomes
 * the summary). Throws on any transport or protocol error: the caller falls back to the extractive writer.
 */
export async function writeWithLlm(input: WriterInput, config: Config, signal: AbortSignal): Promise<WrittenReport> {
  const base = (config.LLM_BASE_URL as string).replace(/\/+$/, '');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.LLM_API_KEY) headers.authorization = `Bearer ${config.LLM_API_KEY}`;
  const res = await fetch(`${base}/chat/completions`, {
    method: 'POST',
    headers,
    signal: AbortSignal.any([signal, AbortSignal.timeout(config.LLM_TIMEOUT_MS)]),
    body: JSON.stringify({
      model: config.LLM_MODEL,
      temperature: 0.2,
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: 'You are a careful research assistant. You write reports only from the passages you are given, citing them.' },
        { role: 'user', content: prompt(input) },
      ],
    }),
  });
  if (!res.ok) throw new Error(`the model endpoint answered ${res.status}`);
  const body = (await res.json()) as { choices?: { message?: { content?: unknown } }[] };
  const text = body.choices?.[0]?.message?.content;
  if (typeof text !== 'string' || !text.trim()) throw new Error('the model endpoint answered no message');
  let summary: string | undefined;
  let content: string | undefined;
  try {
    const parsed = JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, '')) as { summary?: unknown; content?: unknown };
    if (typeof parsed.summary === 'string') summary = parsed.summary;
    if (typeof parsed.content === 'string') content = parsed.content;
  } catch {
    content = text;
  }
  if (!content?.trim()) throw new Error('the model wrote no report');
  summary = (
    summary?.trim() ||
    content
      .trim()
      .split(/\n\s*\n/)
      .find((p) => !p.startsWith('#')) ||
    ''
  ).trim();
  content = content.trim().slice(0, MAX_CONTENT_CHARS);
  if (!/^#{1,3} /m.test(content)) content = `## Summary\n\n${content}`;
  return { summary: summary.slice(0, 5000), body: content };
}
