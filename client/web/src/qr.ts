// A QR code of a link, drawn as SVG (uqr encodes it), for a phone's camera.
import { encode } from "uqr";

const NS = "http://www.w3.org/2000/svg";

export function qrSvg(text: string, label: string): SVGSVGElement {
  const { data, size } = encode(text, { ecc: "L", border: 2 });
  let path = "";
  data.forEach((row, y) => row.forEach((dark, x) => { if (dark) path += `M${x} ${y}h1v1h-1z`; }));
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("class", "qr");
  svg.setAttribute("shape-rendering", "crispEdges");
  const back = document.createElementNS(NS, "rect");
  back.setAttribute("width", String(size));
  back.setAttribute("height", String(size));
  back.setAttribute("fill", "#fff");
  const dots = document.createElementNS(NS, "path");
  dots.setAttribute("d", path);
  dots.setAttribute("fill", "#000");
  svg.append(back, dots);
  return svg;
}
