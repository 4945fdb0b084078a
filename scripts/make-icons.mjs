// Regenerates the raster icons from app/icon.svg (the one drawn mark): app/favicon.ico
// (16, 32 and 48 px PNGs in one ICO), app/apple-icon.png (180 px, square: iOS rounds the
// corners itself) and the web manifest's public/icon-192.png and public/icon-512.png.
// Usage: node scripts/make-icons.mjs   (sharp comes with Next)
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const svg = fs.readFileSync(path.join(root, "app", "icon.svg"), "utf8");
const square = svg.replace(/ rx="\d+"/, ""); // full-bleed background for the apple icon

const png = (source, size) => sharp(Buffer.from(source), { density: 72 * Math.max(1, size / 16) }).resize(size, size).png().toBuffer();

/** An ICO file whose images are PNGs (the ICO format allows it; browsers read them). */
function ico(images) {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, data }, i) => {
    const e = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, e);
    header.writeUInt8(size >= 256 ? 0 : size, e + 1);
    header.writeUInt8(0, e + 2); // no palette
    header.writeUInt8(0, e + 3);
    header.writeUInt16LE(1, e + 4); // colour planes
    header.writeUInt16LE(32, e + 6); // bits per pixel
    header.writeUInt32LE(data.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.data)]);
}

const sizes = [16, 32, 48];
const icoImages = await Promise.all(sizes.map(async (size) => ({ size, data: await png(svg, size) })));
fs.writeFileSync(path.join(root, "app", "favicon.ico"), ico(icoImages));
fs.writeFileSync(path.join(root, "app", "apple-icon.png"), await png(square, 180));
fs.mkdirSync(path.join(root, "public"), { recursive: true });
for (const size of [192, 512]) fs.writeFileSync(path.join(root, "public", `icon-${size}.png`), await png(svg, size));
console.log("icons written");
