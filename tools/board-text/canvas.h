// A character grid for the text pictures of `carc show` and carc-client, and where each board cell
// lands on it.
// Shared by the pictures of every game, so their boards look alike: each tile is kCellW x kCellH
// characters with one column and one row between cells (The City draws its walls there).
#pragma once

#include <string>
#include <vector>

#include "core/board.h"

namespace carc::tool {

inline constexpr int kCellW = 5;
inline constexpr int kCellH = 3;

class Canvas {
 public:
  Canvas(int width, int height)
      : width_(width),
        rows_(static_cast<size_t>(height), std::string(static_cast<size_t>(width), ' ')) {}
  void Put(int x, int y, char c) {
    if (x >= 0 && x < width_ && y >= 0 && y < static_cast<int>(rows_.size()))
      rows_[static_cast<size_t>(y)][static_cast<size_t>(x)] = c;
  }
  // The rows without trailing blanks, each ended by a newline.
  std::string Text() const {
    std::string out;
    for (const std::string& row : rows_) {
      const size_t end = row.find_last_not_of(' ');
      out += (end == std::string::npos ? "" : row.substr(0, end + 1)) + "\n";
    }
    return out;
  }

 private:
  int width_;
  std::vector<std::string> rows_;
};

struct Frame {
  int x0, y1;  // west-most column and north-most row of cells shown
  int Col(int x) const { return 6 + (x - x0) * (kCellW + 1); }  // first column of cell x
  int Row(int y) const { return 2 + (y1 - y) * (kCellH + 1); }  // first row of cell y
};

// The bounding box of the cells a picture shows: a core::Board's, or that of a public state's
// placed tiles (a client holds no Board).
struct Bounds {
  int min_x = 0, max_x = 0, min_y = 0, max_y = 0;
};
inline Bounds BoundsOf(const core::Board& board) {
  return {board.min_x(), board.max_x(), board.min_y(), board.max_y()};
}

// The frame of a bounding box, and a canvas that holds it with a margin of one cell boundary on
// every side; the column numbers on top and the row numbers on the left drawn.
inline Frame BoardFrame(const Bounds& b) { return {b.min_x, b.max_y}; }
inline Frame BoardFrame(const core::Board& board) { return BoardFrame(BoundsOf(board)); }
inline Canvas BoardCanvas(const Bounds& b, const Frame& f) {
  Canvas canvas(f.Col(b.max_x + 1) + 1, f.Row(b.min_y - 1) + 1);
  for (int x = b.min_x; x <= b.max_x; ++x) {
    const std::string label = std::to_string(x);
    for (size_t i = 0; i < label.size(); ++i)
      canvas.Put(f.Col(x) + 2 + static_cast<int>(i), 0, label[i]);
  }
  for (int y = b.max_y; y >= b.min_y; --y) {
    const std::string label = std::to_string(y);
    for (size_t i = 0; i < label.size(); ++i)
      canvas.Put(static_cast<int>(i), f.Row(y) + 1, label[i]);
  }
  return canvas;
}
inline Canvas BoardCanvas(const core::Board& board, const Frame& f) {
  return BoardCanvas(BoundsOf(board), f);
}

}  // namespace carc::tool
