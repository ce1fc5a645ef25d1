// Included by code that differs by system: JBENCH_PLATFORM_LINUX (1 or 0) is set by linking
// jbench::platform_choice (cmake/JbenchPlatform.cmake). Without it, `#if JBENCH_PLATFORM_LINUX`
// would quietly take the other system's branch; this makes the omission a build error.
#pragma once

#ifndef JBENCH_PLATFORM_LINUX
#error "JBENCH_PLATFORM_LINUX is not set: link jbench::platform_choice (cmake/JbenchPlatform.cmake)"
#endif
