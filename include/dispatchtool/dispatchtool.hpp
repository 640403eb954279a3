// dispatchtool public API, all of it: PyTorch's dispatcher, offline
// (docs/api.md). Link dispatchtool::dispatchtool (find_package(dispatchtool)).
#pragma once

#include <dispatchtool/analysis.hpp>
#include <dispatchtool/diagnostic.hpp>
#include <dispatchtool/expected.hpp>
#include <dispatchtool/export.hpp>
#include <dispatchtool/session.hpp>
#include <dispatchtool/table.hpp>
#include <dispatchtool/version.hpp>
