#include "render/keyset_svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "base/text.hpp"

namespace dt {

namespace {

constexpr int kMargin = 12;
constexpr int kLabelW = 290;  // row labels, right-aligned against the grid
constexpr int kCellW = 22;
constexpr int kRowH = 20;
constexpr int kHeadH = 96;  // backend names, written upwards
constexpr int kCharW = 7;   // a character of 12 px text, at most (for the picture's width)
constexpr std::string_view kHow =
    "rows: functionality bits, highest priority on top; columns: backend bits. A per-backend row is in the set on "
    "every column that is.";
constexpr std::pair<std::string_view, std::string_view> kLegend[] = {
    {"in", "in the key set the dispatcher looks up"},
    {"excluded", "removed by the thread-local excluded set (no torch.autocast, below autograd, ...)"},
    {"masked", "removed: the operator's kernel there is a fallthrough"},
    {"runs", "the key that runs: its row is the highest in the set, its column the highest lit backend"}};

// Text for SVG character data and attribute values.
std::string xml(std::string_view s) {
  std::string out;
  for (char c : printable(s)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

bool bit(KeySet ks, std::size_t b) { return ks.has_bit(static_cast<unsigned>(b)); }

enum class State { In, Excluded, Masked, Off };

const char* class_of(State s) {
  switch (s) {
    case State::In:
      return "in";
    case State::Excluded:
      return "excluded";
    case State::Masked:
      return "masked";
    case State::Off:
      return "off";
  }
  return "off";
}

const char* words_of(State s) {
  switch (s) {
    case State::In:
      return "in the key set";
    case State::Excluded:
      return "removed: the thread-local excluded set";
    case State::Masked:
      return "removed: a fallthrough kernel (the operator's mask)";
    case State::Off:
      return "not in the key set";
  }
  return "";
}

}  // namespace

bool render_keyset_svg(const TraceView& v, std::string& out) {
  const CallStep* step = nullptr;
  for (const CallStep& s : v.trace->steps)
    if (s.fresh) {
      step = &s;
      break;
    }
  if (step == nullptr) return false;
  const KeysetAlgebra& ks = *v.ks;
  const Profile& p = ks.profile();
  const std::string& pu1 = v.table->resolver().registry().privateuse1_name;
  const std::size_t nb = ks.backend_count();
  const KeySet args = step->arguments, inc = step->tls.included, exc = step->tls.excluded;
  const KeySet candidates = args | inc, key_set = step->keyset;
  const auto backend_name = [&](std::size_t b) {
    // The bit is PrivateUse1's whatever it is renamed to (torch prints its keys so): the new name beside it.
    const std::string& n = p.backends()[b];
    return n == "PrivateUse1" && !pu1.empty() ? n + " (" + pu1 + ")" : n;
  };
  // Rows: every per-backend functionality, and every other functionality bit
  // the arguments or the included set hold; highest priority first.
  std::vector<std::size_t> rows;
  for (std::size_t f = 64; f-- > nb;) {
    const KeyId k = ks.functionality_key(static_cast<int>(f));
    if (k >= p.keys().size()) continue;
    if (p.key(k).kind == KeyKind::BuildingBlock || bit(candidates, f)) rows.push_back(f);
  }
  const auto state = [&](std::size_t f, int b) {
    const bool per_backend = b >= 0;
    if (bit(key_set, f) && (!per_backend || bit(key_set, static_cast<std::size_t>(b)))) return State::In;
    if (!bit(candidates, f) || (per_backend && !bit(candidates, static_cast<std::size_t>(b)))) return State::Off;
    if (bit(exc, f)) return State::Excluded;
    if (bit(step->unmasked, f)) return State::Masked;
    return State::Off;
  };
  const HighestKey& h = step->picked;
  const std::string runs = h.key == kUndefined ? h.name : p.display_name(h.key, pu1);
  // What changed each row: the thread-local state, the fallthrough mask, the key that runs.
  const std::size_t picked_bit = h.functionality == kUndefined ? 64 : nb + h.functionality - 1;
  std::vector<std::string> row_notes;
  for (std::size_t f : rows) {
    const KeyId k = ks.functionality_key(static_cast<int>(f));
    std::vector<std::string> notes;
    if (bit(inc, f) && !bit(args, f)) notes.emplace_back("+ thread-local included");
    if (bit(exc, f) && bit(candidates, f)) notes.emplace_back("- thread-local excluded");
    if (!bit(exc, f) && bit(step->unmasked, f) && !bit(key_set, f)) notes.emplace_back("- fallthrough");
    if (p.key(k).kind == KeyKind::BuildingBlock && bit(key_set, f) && !key_set.has_any(ks.backends()))
      notes.emplace_back("in the set with no backend bit (PyTorch prints " + p.name_of(k) + " (no backend))");
    if (f == picked_bit) notes.push_back("runs: " + runs);
    row_notes.push_back(join(notes, "; "));
  }
  // Text is measured at kCharW per character (DejaVu Sans at 12 px is narrower): nothing is cut off.
  std::size_t widest_note = 0;
  for (const std::string& n : row_notes) widest_note = std::max(widest_note, utf8_width(n));
  const int title_h = 64;
  const int gx = kMargin + kLabelW, gy = title_h + kHeadH;
  const int grid_w = static_cast<int>(nb) * kCellW;
  std::size_t widest_legend = 0;
  for (const auto& [cls, words] : kLegend) widest_legend = std::max(widest_legend, words.size());
  const int width = std::max({gx + grid_w + 10 + static_cast<int>(widest_note) * kCharW + kMargin,
                              kMargin + kCellW + 8 + static_cast<int>(widest_legend) * kCharW + kMargin,
                              2 * kMargin + static_cast<int>(kHow.size()) * kCharW});
  const int legend_y = gy + static_cast<int>(rows.size()) * kRowH + 18;
  const int height = legend_y + 4 * 20 + kMargin;

  out += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"12\">\n",
      width, height);
  out +=
      "<style>\n"
      "  .in { fill: #2b6cb0; } .excluded { fill: #f6ad55; } .masked { fill: #cbd5e0; } .off { fill: #ffffff; }\n"
      "  rect.cell { stroke: #a0aec0; stroke-width: 1; }\n"
      "  .runs { fill: none; stroke: #c53030; stroke-width: 3; }\n"
      "  .band { fill: #fefcbf; }\n"
      "  text.on { font-weight: bold; } text.dim { fill: #718096; } text.title { font-size: 14px; font-weight: bold; "
      "}\n"
      "</style>\n";
  out += fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", width, height);
  out += fmt::format("<text class=\"title\" x=\"{}\" y=\"{}\">{}: the key set of the call</text>\n", kMargin,
                     kMargin + 12, xml(v.table->op().name));
  out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", kMargin, kMargin + 32, kHow);
  out +=
      fmt::format("<text id=\"runs\" x=\"{}\" y=\"{}\">runs: {} (the highest row on the highest lit column)</text>\n",
                  kMargin, kMargin + 50, xml(runs));

  // The highest row and the highest backend column, as bands behind the cells.
  const auto row_of = [&](std::size_t f) {
    return static_cast<int>(std::find(rows.begin(), rows.end(), f) - rows.begin());
  };
  const bool picked_row = picked_bit < 64 && row_of(picked_bit) < static_cast<int>(rows.size());
  if (picked_row)
    out += fmt::format("<rect class=\"band\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", gx - kLabelW,
                       gy + row_of(picked_bit) * kRowH - 1, kLabelW + grid_w, kRowH);
  if (h.backend >= 0)
    out += fmt::format("<rect class=\"band\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
                       gx + h.backend * kCellW - 1, gy - kHeadH + 8, kCellW,
                       kHeadH - 8 + static_cast<int>(rows.size()) * kRowH);

  // Backend columns.
  for (std::size_t b = 0; b < nb; ++b) {
    const int x = gx + static_cast<int>(b) * kCellW + kCellW / 2 + 4;
    out += fmt::format(
        "<text class=\"backend {}\" data-backend=\"{}\" x=\"{}\" y=\"{}\" transform=\"rotate(-90 {} {})\">{}</text>\n",
        bit(key_set, b) ? "on" : "dim", xml(backend_name(b)), x, gy - 6, x, gy - 6, xml(backend_name(b)));
  }
  // Rows.
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::size_t f = rows[r];
    const KeyId k = ks.functionality_key(static_cast<int>(f));
    const bool per_backend = p.key(k).kind == KeyKind::BuildingBlock;
    const int y = gy + static_cast<int>(r) * kRowH;
    out += fmt::format(
        "<text class=\"functionality {}\" data-functionality=\"{}\" x=\"{}\" y=\"{}\" "
        "text-anchor=\"end\">{}{}</text>\n",
        bit(key_set, f) ? "on" : "dim", xml(p.name_of(k)), gx - 8, y + 14, xml(p.name_of(k)),
        per_backend ? " (per backend)" : "");
    if (per_backend) {
      for (std::size_t b = 0; b < nb; ++b) {
        const State s = state(f, static_cast<int>(b));
        const KeyId m = ks.member(k, b);
        const std::string name = m == kUndefined ? p.name_of(k) + " " + backend_name(b) : p.display_name(m, pu1);
        out += fmt::format(
            "<rect class=\"cell {}\" data-key=\"{}\" data-functionality=\"{}\" x=\"{}\" y=\"{}\" "
            "width=\"{}\" height=\"{}\"><title>{}: {}</title></rect>\n",
            class_of(s), xml(name), xml(p.name_of(k)), gx + static_cast<int>(b) * kCellW, y, kCellW - 2, kRowH - 2,
            xml(name), words_of(s));
      }
    } else {
      const State s = state(f, -1);
      const std::string name = p.display_name(k, pu1);
      out += fmt::format(
          "<rect class=\"cell {}\" data-key=\"{}\" data-functionality=\"{}\" x=\"{}\" y=\"{}\" "
          "width=\"{}\" height=\"{}\"><title>{}: {} (a functionality of its own: no backend "
          "bit)</title></rect>\n",
          class_of(s), xml(name), xml(p.name_of(k)), gx, y, grid_w - 2, kRowH - 2, xml(name), words_of(s));
    }
    if (!row_notes[r].empty())
      out += fmt::format("<text class=\"note\" x=\"{}\" y=\"{}\">{}</text>\n", gx + grid_w + 10, y + 14,
                         xml(row_notes[r]));
  }
  // The cell that runs.
  if (picked_row) {
    const int y = gy + row_of(picked_bit) * kRowH;
    const bool per_backend = p.key(h.functionality).kind == KeyKind::BuildingBlock;
    const int x = per_backend ? gx + std::max(h.backend, 0) * kCellW : gx;
    out += fmt::format("<rect class=\"runs\" data-key=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
                       xml(runs), x - 1, y - 1, (per_backend ? kCellW : grid_w), kRowH);
  }
  // Legend.
  for (std::size_t i = 0; i < std::size(kLegend); ++i) {
    const int y = legend_y + static_cast<int>(i) * 20;
    if (kLegend[i].first == "runs")
      out += fmt::format("<rect class=\"runs\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", kMargin + 1, y + 1,
                         kCellW - 4, kRowH - 4);
    else
      out += fmt::format("<rect class=\"cell {}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", kLegend[i].first,
                         kMargin, y, kCellW - 2, kRowH - 2);
    out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", kMargin + kCellW + 8, y + 14, xml(kLegend[i].second));
  }
  out += "</svg>\n";
  return true;
}

}  // namespace dt
