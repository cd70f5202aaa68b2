# RIDGELINE_WITH_QT: AUTO (the default) builds the dashboard (gui/, ridgeline-gui) when CMake
# finds Qt 6.4 or newer with Widgets and Test (Debian: qt6-base-dev); ON
# insists; OFF builds a ridgeline-gui that says why there is no dashboard.
set(RIDGELINE_WITH_QT "AUTO" CACHE STRING "Build the Qt dashboard: AUTO, ON or OFF")
set_property(CACHE RIDGELINE_WITH_QT PROPERTY STRINGS AUTO ON OFF)

set(RIDGELINE_QT_ENABLED OFF)
set(RIDGELINE_QT_OFF_REASON "configured with -DRIDGELINE_WITH_QT=OFF")
if(NOT RIDGELINE_WITH_QT STREQUAL "OFF")
  find_package(Qt6 6.4 QUIET COMPONENTS Core Gui Widgets Test)
  if(Qt6_FOUND)
    set(RIDGELINE_QT_ENABLED ON)
    message(STATUS "Ridgeline: Qt ${Qt6_VERSION}: the dashboard is built")
  elseif(RIDGELINE_WITH_QT STREQUAL "ON")
    message(FATAL_ERROR "RIDGELINE_WITH_QT=ON but Qt 6.4 (Core Gui Widgets Test) was not found: run scripts/install-deps")
  else()
    set(RIDGELINE_QT_OFF_REASON "Qt 6.4 (qt6-base-dev) was not found when configuring: run scripts/install-deps and reconfigure")
  endif()
endif()
if(NOT RIDGELINE_QT_ENABLED)
  message(STATUS "Ridgeline: the dashboard is off: ${RIDGELINE_QT_OFF_REASON}")
endif()
