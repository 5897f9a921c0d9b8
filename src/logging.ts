import { type DestinationStream, type LoggerOptions, pino } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from './config.js';

type LogSettings = Pick<Config, 'LOG_LEVEL' | 'LOG_FORMAT'>;

/**
 * Human-readable lines (LOG_FORMAT=pretty, for development): formatted in this process, so nothing is lost at exit
 * the way a transport's worker thread can lose its last lines. JSON (the default) keeps one object a line for a log
 * collector. `destination` defaults to stdout (coloured when it is a terminal).
 */
export function prettyStream(destination?: DestinationStream): DestinationStream {
  return pretty({
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    sync: true,
    ...(destination ? { destination: destination as NodeJS.WritableStream, colorize: false } : {}),
  });
}

/** Fastify's logger options: the level and format of the settings, then `extra` (redaction, a test's stream) over them. */
export function appLoggerOptions(config: LogSettings, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const options: Record<string, unknown> = { level: config.LOG_LEVEL, ...extra };
  if (config.LOG_FORMAT !== 'pretty') return options;
  return { ...options, stream: prettyStream(options.stream as DestinationStream | undefined) };
}

/** A logger outside a request (the worker process, the CLI, background runners), in the format of the settings. */
export function createLogger(config: LogSettings, name: string, options: LoggerOptions = {}) {
  const opts: LoggerOptions = { level: config.LOG_LEVEL, name, ...options };
  return config.LOG_FORMAT === 'pretty' ? pino(opts, prettyStream()) : pino(opts);
}
