// The units of a basic GRU cell, in PopLibs' numbering. GruParams::cellOrder says in which
// order they lie along the first dimension of the weights and biases.
#pragma once

enum BasicGruCellUnit {
  BASIC_GRU_CELL_RESET_GATE = 0,
  BASIC_GRU_CELL_UPDATE_GATE = 1,
  BASIC_GRU_CELL_CANDIDATE = 2,
  BASIC_GRU_CELL_NUM_UNITS = 3
};
