#include <vector>
#include <iostream>

class Grid {
public:
    int cells() const { return w * h; }
    int w = 2, h = 3;
};

int area(const Grid& g) {
    return g.cells();
}

int main() {
    std::cout << area(Grid{}) << std::endl;
}
