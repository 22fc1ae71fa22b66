// A phone's photo made smaller before it is sent. A phone's camera makes JPEGs of 12 MP
// and more, several MB each, and the table's connection is often a phone's: such a photo
// takes seconds to send where a 2048 px one takes a fraction of that. The server decodes every photo
// down to about 1000 px on its long side anyway (vision/photo.py), so a photo of
// LONG_SIDE px reads as the original does (README.md, "The table-side web page", has the
// measurement); it is also larger than the generator's training photos, so the corrected
// photos a table exports for fine-tuning keep their detail.

export const LONG_SIDE = 2048;
const QUALITY = 0.9;

// The photo to send for `file`: a JPEG of LONG_SIDE px on its long side, turned upright
// as its EXIF orientation says, where the browser can decode `file` and that is smaller;
// otherwise `file` itself (a photo small already, or one the browser cannot decode, such
// as HEIC in most browsers: the server reads those).
export async function photoForUpload(file) {
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.src = url;
    try {
      await image.decode();
    } catch {
      return file;
    }
    // An <img> is drawn the way up its EXIF tag says (CSS image-orientation: from-image,
    // every browser's default since 2020), and naturalWidth/Height are that way up too.
    const scale = LONG_SIDE / Math.max(image.naturalWidth, image.naturalHeight);
    if (!(scale < 1)) return file;
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(image.naturalWidth * scale);
    canvas.height = Math.round(image.naturalHeight * scale);
    const context = canvas.getContext("2d");
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = "high";
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", QUALITY));
    if (!blob || blob.size >= file.size) return file;
    return new File([blob], jpegName(file.name), { type: "image/jpeg" });
  } catch {
    return file; // out of memory for a huge photo, say: the original still serves
  } finally {
    URL.revokeObjectURL(url);
  }
}

function jpegName(name) {
  const stem = (name || "photo").replace(/\.[^./]*$/, "");
  return `${stem}.jpg`;
}
