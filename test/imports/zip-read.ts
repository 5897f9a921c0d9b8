import yauzl from 'yauzl';

/** One entry of a zip on disk (a real export in `REAL_EXPORTS_DIR`), as bytes; fails when the zip has no such entry. */
export function readZipEntry(zipPath: string, name: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    yauzl.open(zipPath, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            zip.close();
            resolve(Buffer.concat(chunks));
          });
        });
      });
      zip.on('end', () => reject(new Error(`${name} is not in ${zipPath}`)));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
