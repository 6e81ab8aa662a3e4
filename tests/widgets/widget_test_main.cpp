// The widget tests' own main: offscreen by default (a display is never needed), one
// QApplication for every test, then GoogleTest.
#include <QApplication>

#include <gtest/gtest.h>

#include <cstdlib>

int main(int argc, char** argv) {
    if (std::getenv("QT_QPA_PLATFORM") == nullptr)
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication application(argc, argv);
    QApplication::setApplicationName("waferscope-tests"); // keeps test settings apart
    QApplication::setOrganizationName("WaferScopeTests");
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
